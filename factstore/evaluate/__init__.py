"""Evaluations of the face: retrieval against reference passages, and ask against gold answers. Clients of
FactStore, as the CLI and the demo are; nothing in the engine imports them."""
