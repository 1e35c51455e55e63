"""XBRL documents read exactly: instances, inline XBRL and the ixt transformation registries."""
