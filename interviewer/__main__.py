"""Allow `python -m interviewer`."""

from interviewer.cli.entry import entry

if __name__ == "__main__":
    entry()
