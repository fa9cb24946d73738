"""Benchmarks: ``python -m bench`` runs the suite; the scripts here also run on their own."""
