"""The SQL that makes a store (schema, macros, views), shipped inside the package as factstore.sql."""
