"""notescrub: de-identification of clinical text.

>>> from notescrub import Document, Span
>>> Document("n1", "Seen 3/18.", layers={"gold": [Span(5, 9, "DATE")]}).layer("gold")[0].phi
'DATE'
"""

from notescrub.errors import NotescrubError
from notescrub.types import GOLD, PHI, Document, Span

__version__ = "0.1.0"

__all__ = ["Document", "Span", "GOLD", "PHI", "NotescrubError", "__version__"]
