"""Folds of the event streams: game records, per-seat views, snapshots and indexes."""
