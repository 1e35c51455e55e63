"""Live SEC EDGAR ingestion: a fair-access client with a raw-response cache, and loads that resume."""

from factstore.sec.client import FetchError, SecClient

__all__ = ["FetchError", "SecClient"]
