"""``python -m notescrub ...``: the same as the ``notescrub`` command.

>>> import notescrub.__main__ as m
>>> callable(m.main)
True
"""

import sys

from notescrub.cli.main import main

if __name__ == "__main__":
    sys.exit(main())
