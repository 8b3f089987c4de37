"""`python -m rag_core` entry point."""

import sys

from .cli import main

sys.exit(main(process_start=True))
