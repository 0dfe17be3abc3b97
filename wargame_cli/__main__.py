from wargame_cli.cli.app import main

main()
