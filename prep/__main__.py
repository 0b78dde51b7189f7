"""`python -m prep`: the same as the `prep` command."""

from prep.cli.main import main

main()
