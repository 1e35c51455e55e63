"""Questions in, cited answers out: parse a question, route it to the facts or the text index."""
