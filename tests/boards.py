"""Board texts that more than one test module reads."""

# The board of interface.md's "Board file" section, word for word.
INTERFACE_EXAMPLE = """\
# a comment; blank lines are ignored
rules: wraparound initial-meld=50 tile-set=160 joker-penalty=20
opened: no
table:
R3 R4 R5
K7 R7 B7 J
rack: R2 B5 O5 J
"""
