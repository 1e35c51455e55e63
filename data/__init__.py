"""Curated data (metric vocabulary, aliases, evaluation questions), shipped inside the package as factstore.data."""
