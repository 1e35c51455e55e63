"""The text half: parse filings and reports into blocks with character spans, chunk, index, search."""
