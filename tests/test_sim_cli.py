"""`delve sim` and danger in every booklet: the commands end to end, bad input, the JSON, the
text, md, HTML and PDF lines, a referee's own party, and documents that carry estimates."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

# --------------------------------------------------------------------------- the command


def test_sim_command(run_cli):
    res = run_cli("sim", "--monster", "adult dragon", "--count", "3", "--seed", "x")
    assert res.code == 0, res.err
    assert "3 adult dragons against four level-1 characters" in res.out
    assert "Verdict: deadly" in res.out
    again = run_cli("sim", "--monster", "adult dragon", "--count", "3", "--seed", "x")
    assert again.out == res.out
    res = run_cli(
        "sim", "--monster", "ogre", "--party", "fighter:3,mage:3", "-f", "json", "--seed", "y"
    )
    data = json.loads(res.out)
    assert set(data["danger"]) >= {
        "win",
        "flee",
        "wiped",
        "drop",
        "rounds",
        "hp_lost",
        "trials",
        "verdict",
    }
    assert data["danger"]["trials"] == 2000


@pytest.mark.parametrize(
    "args,message",
    [
        (["--monster", "ogr"], "no such monster; close names: Ogre"),
        (["--monster", "ogre", "--party", "fighter:x"], "--party 'fighter:x'"),
        (["--monster", "ogre", "--trials", "0"], "--trials: must be from 1 to 1,000,000"),
        (["--monster", "ogre", "--trials", "1000001"], "--trials: must be from 1 to 1,000,000"),
        (["--monster", "ogre", "--count", "0"], "--count '0'"),
        (["--monster", "ogre", "--level", "2", "--party", "mage:2"], "one or the other"),
        ([], "a saved document or --monster"),
    ],
)
def test_sim_bad_input(run_cli, args, message):
    res = run_cli("sim", *args, "--seed", "x")
    assert res.code == 1
    assert message in res.err
    assert len(res.err.strip().splitlines()) == 1
    assert "Traceback" not in res.err


def test_site_json_only_with_danger_and_never_imports_numpy(run_cli, tmp_path):
    plain = run_cli("site", "--seed", "harrowdeep", "-f", "json")
    assert '"danger"' not in plain.out and '"routes"' not in plain.out
    code = (
        "import sys; import generator.cli as c\n"
        "try:\n    c.main(['site', '--seed', 'harrowdeep', '-f', 'json'])\n"
        "except SystemExit:\n    pass\n"
        "assert 'numpy' not in sys.modules, 'numpy imported'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)
    res = run_cli("site", "--seed", "harrowdeep", "-f", "json", "--danger")
    doc = json.loads(res.out)
    for room in doc["rooms"]:
        assert ("danger" in room) == bool(room["monsters"])
        if room["monsters"]:
            d = room["danger"]
            assert set(d) >= {
                "win",
                "flee",
                "wiped",
                "drop",
                "rounds",
                "hp_lost",
                "trials",
                "verdict",
            }
            assert d["party"] == "four level-1 characters"
    assert all("danger" in e for e in doc["encounters"])
    assert doc["routes"][0]["steps"]
    # the document reads back, and `delve sim DOC` estimates it again to the same figures
    saved = tmp_path / "site.json"
    saved.write_text(res.out)
    again = run_cli("sim", str(saved), "-f", "json")
    assert json.loads(again.out)["rooms"] == doc["rooms"]
    text = run_cli("sim", str(saved)).out
    beasts = {m["name"]: m for m in doc["bestiary"].values()}

    def said(name, count):  # '14 ashlings', '1 young dragon', '1d3+1 ashlings'
        return f"{count} {name.lower() if str(count) == '1' else beasts[name]['plural']}"

    for room in doc["rooms"]:
        if room["monsters"]:
            who = ", ".join(said(g["name"], g["count"]) for g in room["monsters"])
            assert f"Room {room['id']}, {room['name']} ({who}): " in text, who
    for e in doc["encounters"]:
        assert f"Encounter {e['roll']} ({said(e['name'], e['count'])}): " in text


def test_text_shows_danger_unless_told_not_to(run_cli):
    shown = run_cli("site", "--seed", "harrowdeep")
    assert "Danger for four level-1 characters:" in shown.out
    assert "Danger, room after room" in shown.out
    hidden = run_cli("site", "--seed", "harrowdeep", "--no-danger")
    assert "Danger for" not in hidden.out
    other = run_cli("site", "--seed", "harrowdeep", "--system", "f4c")
    assert "Danger for four level-1 characters (FMC Basic's rules):" in other.out


def test_a_room_or_lair_alone_shows_the_danger_its_key_shows(run_cli):
    """`delve site --seed harrowdeep/level/1/room/4` prints room 4's key entry as the site's key
    prints it, danger line and all; a one-room lair alone likewise (README, Addresses)."""
    room = run_cli("site", "--seed", "harrowdeep/level/1/room/4").out
    assert "Danger for four level-1 characters:" in room
    assert room.strip() in run_cli("site", "--seed", "harrowdeep").out
    assert "Danger" not in run_cli("site", "--seed", "harrowdeep/level/1/room/4", "--no-danger").out
    lair = run_cli("region", "--seed", "saltmarch/hex/0103/lair").out
    line = next(x for x in lair.split("\n  * ") if x.startswith("Danger for"))
    assert line in run_cli("region", "--seed", "saltmarch").out
    doc = json.loads(run_cli("site", "--seed", "harrowdeep/level/1/room/4", "-f", "json").out)
    assert "danger" not in doc
    doc = json.loads(
        run_cli("site", "--seed", "harrowdeep/level/1/room/4", "-f", "json", "--danger").out
    )
    assert doc["danger"]["trials"] == 2000
