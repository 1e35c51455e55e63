"""Loaders: each turns one input format into rows of the store's tables, validating as it goes.

They know formats, not semantics: the store decides what the rows mean.
"""

from factstore.loaders.batch import Batch

__all__ = ["Batch"]
