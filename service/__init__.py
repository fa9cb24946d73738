"""The HTTP API, its schemas and errors, the command engine and the CLI."""
