"""The application layer: what the HTTP API and the workers share, below both.

It knows the rules (games), the store (events) and the folds (projections); it never
knows the transport. Errors it raises are domain errors (``engine.errors``), which the
HTTP layer turns into problem answers in one place.
"""
