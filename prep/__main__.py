from prep.cli.app import main

main()
