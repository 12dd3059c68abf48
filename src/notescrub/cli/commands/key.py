"""``notescrub key``: create the secret surrogate key that ``--key-file`` reads.

The command only parses arguments; keys are :class:`notescrub.replace.keys.SurrogateKey`.

>>> import argparse
>>> p = argparse.ArgumentParser(); add_arguments(p)
>>> p.parse_args(["new", "site.key"]).path
'site.key'
"""

from __future__ import annotations

import argparse
import sys

from notescrub.errors import ConfigError

NAME = "key"
HELP = "create a secret surrogate key file (for --key-file)"
DESCRIPTION = """\
new PATH   write a new random secret key to PATH, readable by you only (mode 600).
           An existing file is never overwritten; a missing parent folder is
           created readable by you only (mode 700). The key itself is never printed:
           only its path and its public fingerprint (id).

Pass the file to 'notescrub deid --key-file PATH' to get the same surrogates in
every run. Keep it secret, back it up, and never share it with the de-identified
data: whoever holds it can link surrogates back to the original values.

examples:
  notescrub key new ~/.config/notescrub/keys/site.key
  notescrub deid notes/ -o deid/ --key-file ~/.config/notescrub/keys/site.key
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="key_command", metavar="SUBCOMMAND")
    n = sub.add_parser("new", help="write a new secret key file (mode 600, never overwrites)",
                       description="Write a new random secret surrogate key to PATH (mode 600; refuses to overwrite).")
    n.add_argument("path", metavar="PATH", help="key file to create")


def run(args: argparse.Namespace) -> int:
    from notescrub.replace.keys import SurrogateKey

    if getattr(args, "key_command", None) != "new":
        raise ConfigError("missing sub-command: use 'notescrub key new PATH' (see --help)")
    key = SurrogateKey.generate()
    path = key.save(args.path)
    print(f"notescrub key: wrote a new secret key (id {key.id}) to {path}; pass '--key-file {path}' to "
          "notescrub deid. Keep it secret and never share it with the de-identified data.", file=sys.stderr)
    return 0
