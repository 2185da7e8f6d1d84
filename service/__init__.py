"""The service: the command handler, the Flask API, configuration and the CLI."""
