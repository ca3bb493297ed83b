"""Articles, plurals and agreement: the one place Delve's Python assembles English.

Tables carry their own grammar where English is irregular (a monster's `plural`, an entry's
`article`); these rules cover the rest. Every generator and renderer that joins words goes
through here, so "a ossuary", "1 giants are" and "1 hit dice" cannot come back one place at a
time.
"""

from __future__ import annotations

import re
from functools import lru_cache

# Words that start with a vowel letter but a consonant sound, and the reverse.
_AN_EXCEPTIONS = ("hour", "honest", "honou", "heir")  # British: a herb, a hotel
_A_EXCEPTIONS = (
    "one",
    "once",
    "uni",
    "use",
    "usa",
    "usu",
    "uti",
    "ure",
    "uro",
    "eu",
    "ewe",
    "ubiq",
)
_IRREGULAR = {
    "man": "men",
    "woman": "women",
    "child": "children",
    "foot": "feet",
    "tooth": "teeth",
    "goose": "geese",
    "mouse": "mice",
    "louse": "lice",
    "ox": "oxen",
    "die": "dice",
    "person": "people",
    "fungus": "fungi",
    "cactus": "cacti",
    "staff": "staves",
    "dwarf": "dwarves",
    "elf": "elves",
    "wolf": "wolves",
    "thief": "thieves",
    "knife": "knives",
    "life": "lives",
    "wife": "wives",
    "leaf": "leaves",
    "loaf": "loaves",
    "half": "halves",
    "self": "selves",
    "shelf": "shelves",
    "calf": "calves",
    "hoof": "hooves",
    "scarf": "scarves",
    "wharf": "wharves",
}
_SAME = {"sheep", "deer", "fish", "swine", "moose", "bison", "folk", "kin", "undead", "vermin"}
_OF = re.compile(r"^(.*?)(\s+(?:of|in|from|with|on|under)\s+.*)$")


def article(phrase: str) -> str:
    """'a' or 'an' for the phrase, by its sound: an ossuary, a unicorn, an hour, a one-eyed."""
    word = phrase.strip().lstrip("\"'(").lower()
    if not word:
        return "a"
    if word.startswith(_AN_EXCEPTIONS):
        return "an"
    if word.startswith(_A_EXCEPTIONS):
        return "a"
    if re.match(r"^[0-9]", word):
        # By how the number is said: an 8-foot pole, an 11-foot pole, an 18-inch blade.
        return "an" if re.match(r"^(8|11|18)(\D|$)|^8\d", word) else "a"
    if len(word) == 1 or (len(word) > 1 and not word[1].isalpha() and word[1] != "'"):
        return "an" if word[0] in "aefhilmnorsx" else "a"  # letters said aloud: an S, a T
    return "an" if word[0] in "aeiou" else "a"


def with_article(phrase: str) -> str:
    """'an iron door', 'a unicorn horn'."""
    return f"{article(phrase)} {phrase}"


def _plural_word(word: str) -> str:
    lower = word.lower()
    if lower in _SAME:
        return word
    if lower in _IRREGULAR:
        out = _IRREGULAR[lower]
        return out.capitalize() if word[:1].isupper() else out
    for tail in ("man", "woman"):
        if lower.endswith(tail) and lower not in ("human", "talisman", "shaman", "caiman"):
            return word[: -len(tail)] + _IRREGULAR[tail]
    if re.search(r"(s|x|z|ch|sh)$", lower):
        return word + "es"
    if re.search(r"[^aeiou]y$", lower):
        return word[:-1] + "ies"
    if re.search(r"[^aeiou]o$", lower) and lower not in ("piano", "photo", "halo", "solo"):
        return word + "es"
    return word + "s"


@lru_cache(maxsize=4096)
def plural(noun: str) -> str:
    """The plural of a noun phrase: its head word changes ('bolts of silk', 'giant rats')."""
    match = _OF.match(noun)
    if match:
        return plural(match.group(1)) + match.group(2)
    head, _, last = noun.rpartition(" ")
    return f"{head} {_plural_word(last)}" if head else _plural_word(last)


def count(n: int, singular: str, plural_form: str | None = None) -> str:
    """'1 giant', '3 giants', '1 hit die', '2 hit dice' (the table's plural when it has one)."""
    return f"{n:,} {singular if n == 1 else plural_form or plural(singular)}"


def noun(n: int, singular: str, plural_form: str | None = None) -> str:
    """The noun alone, agreeing with n: 'giant' for 1, 'giants' otherwise."""
    return singular if n == 1 else plural_form or plural(singular)


def verb(n: int, singular: str, plural_form: str) -> str:
    """The verb agreeing with n: verb(1, 'is', 'are') -> 'is'."""
    return singular if n == 1 else plural_form


def capital(text: str) -> str:
    """The first letter made upper case, the rest untouched ('the lamp' -> 'The lamp')."""
    return text[:1].upper() + text[1:]


_ABBREVIATION_END = re.compile(r"\b[A-Za-z]\.[A-Za-z]\.$")  # c.p., g.p., e.g.


def ends_sentence(text: str) -> bool:
    """Whether the text already ends a sentence: a full stop (an abbreviation's serves: '25
    c.p.'), '!' or '?', or one inside closing quotes or brackets ('(It is cursed.)'). A bracket
    closing an abbreviation does not: '700 c.p. (7 g.p.)' takes a full stop after it."""
    text = text.rstrip()
    if not text or text[-1] in ".!?":
        return True
    if text[-1] not in "\"')":
        return False
    inner = text[:-1].rstrip()
    if not inner or inner[-1] not in ".!?":
        return False
    return not (text[-1] == ")" and _ABBREVIATION_END.search(inner))


def stop(text: str) -> str:
    """The text ended with a full stop, unless it already ends a sentence."""
    text = text.strip()
    return text if ends_sentence(text) else text + "."


def sentence(text: str) -> str:
    """A phrase as a sentence: capital first letter and a full stop if it has no end mark."""
    return capital(stop(text))


def join(words: list[str] | tuple[str, ...], last: str = "and") -> str:
    """'a, b and c' (no Oxford comma, as Delve's other lists)."""
    items = [w for w in words if w]
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


_TO_SINGULAR = {"are": "is", "have": "has", "were": "was", "do": "does", "go": "goes"}
_TO_PLURAL = {v: k for k, v in _TO_SINGULAR.items()}


def _third_person(verb_word: str) -> str:
    """'sleep' -> 'sleeps', 'watch' -> 'watches', 'carry' -> 'carries' (regular verbs)."""
    lower = verb_word.lower()
    if lower in _TO_SINGULAR:
        return _TO_SINGULAR[lower]
    if re.search(r"(s|x|z|ch|sh|o)$", lower):
        return verb_word + "es"
    if re.search(r"[^aeiou]y$", lower):
        return verb_word[:-1] + "ies"
    return verb_word + "s"


def agree(phrase: str, n: int) -> str:
    """A phrase that follows its subject, its first word the verb, agreeing with n subjects.

    Activity tables are written for groups ('are sleeping', 'sleep in a heap'); one monster
    'is sleeping' or 'sleeps in a heap'. A phrase written for one ('is', 'has') agrees with
    several the other way.
    """
    first, space, rest = phrase.strip().partition(" ")
    if not first:
        return phrase.strip()
    lower = first.lower()
    if n == 1:
        if lower in _TO_PLURAL or not first.isalpha() or re.search(r"[^s]s$", lower):
            return phrase.strip()  # already singular ('is', 'has', 'hunts')
        return _third_person(first) + space + rest
    if lower in _TO_PLURAL:
        return _TO_PLURAL[lower] + space + rest
    return phrase.strip()


_NUMBER_WORDS = "zero one two three four five six seven eight nine ten eleven twelve".split()


def number(n: int) -> str:
    """'four' for 4: numbers up to twelve in words, as prose writes them; larger in figures."""
    return _NUMBER_WORDS[n] if 0 <= n < len(_NUMBER_WORDS) else f"{n:,}"
