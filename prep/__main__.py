"""`python -m prep`: the same as the `prep` command."""

from prep.cli.app import main

main()
