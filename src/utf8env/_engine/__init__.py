"""The pure rules: decide(Inputs) -> Decision, the version profiles, the
interpreter's command line. Nothing here reads the process (DESIGN.md)."""
