"""Allow `python -m interviewer`."""

from interviewer.cli.main import main

if __name__ == "__main__":
    main()
