from generator.cli import main

main()
