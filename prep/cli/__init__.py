"""The command line: the app and its error funnel, shared options, rendering, the editor, the
drill's terminal UI and one module per group of commands. Nothing below imports it."""
