"""The application core: commands, the vault, tooling on the log; free of Flask and of any job runner."""
