"""One module per group of commands; each command parses options, calls the library once and
renders the result. Loaded lazily, only the command that runs (see prep.cli.app.COMMANDS)."""
