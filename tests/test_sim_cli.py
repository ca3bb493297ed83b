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


# --------------------------------------------------------------------------- booklets

PARTY_FILE = """\
party:
  - {name: Brakka, class: fighter, level: 4, armor: chainmail, shield: true, weapon: one-handed}
  - {name: Orm, class: fighter, level: 4, weapon: two-handed, weapon_bonus: 1}
  - {name: Wick, class: expert, level: 4}
  - {name: Sefa, class: mage, level: 4, spells: [Lullaby, Heal]}
"""
BRAKKA = "Brakka, Orm, Wick and Sefa"


def _saved(run_cli, tmp_path, name="site.json", edit=None, *args):
    """harrowdeep's document with its danger (or not), perhaps edited; its path."""
    res = run_cli("site", "--seed", "harrowdeep", "-f", "json", *args)
    assert res.code == 0, res.err
    doc = json.loads(res.out)
    if edit is not None:
        edit(doc)
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return path


def _room(doc, room_id):
    return next(r for r in doc["rooms"] if r["id"] == room_id)


def test_region_booklets_print_each_sites_route(run_cli, tmp_path):
    # Text and md print "Danger, room after room" for every site of a region; HTML and PDF
    # booklets do too, in the site's chapter.
    text = run_cli("region", "--seed", "saltmarch").out
    sites = text.count("Danger, room after room")
    assert sites >= 1
    out = tmp_path / "r.html"
    assert run_cli("region", "--seed", "saltmarch", "-f", "html", "-o", out).code == 0
    html = out.read_text()
    assert html.count("Danger, room after room") == sites
    chapter = html[html.index('class="chapter site-chapter"') :]
    assert "Through so far" in chapter and "win every fight" in chapter


def test_a_referees_party_reaches_the_booklets(run_cli, tmp_path):
    party = tmp_path / "my-party.yaml"
    party.write_text(PARTY_FILE)
    text = run_cli("site", "--seed", "harrowdeep", "--party", party).out
    assert f"Danger for {BRAKKA}:" in text
    assert f"{BRAKKA} win every fight" in text
    assert "four level-1 characters" not in text
    out = tmp_path / "s.html"
    assert (
        run_cli("site", "--seed", "harrowdeep", "--party", party, "-f", "html", "-o", out).code == 0
    )
    assert f"for {BRAKKA}:" in out.read_text()
    region = run_cli(
        "region", "--seed", "saltmarch", "--party", "fighter:3,fighter:3,expert:3,mage:3"
    )
    assert "Danger for four level-3 characters:" in region.out
    assert "level-1 characters" not in region.out
    doc = json.loads(
        run_cli("site", "--seed", "harrowdeep", "-f", "json", "--danger", "--trials", "300").out
    )
    assert {e["danger"]["trials"] for e in doc["encounters"]} == {300}
    assert doc["routes"][0]["trials"] == 300
    # --party or --trials where no estimate is made, or a bad party: one line, exit 1.
    for args, message in (
        (["-f", "json", "--party", "mage:2"], "--party: there are no danger estimates"),
        (["--no-danger", "--trials", "300"], "--trials: there are no danger estimates"),
        (["--party", "fighter:x"], "--party 'fighter:x'"),
        (["--trials", "0"], "--trials: must be from 1 to 1,000,000"),
    ):
        res = run_cli("site", "--seed", "harrowdeep", *args)
        assert res.code == 1 and message in res.err, (args, res.err)
        assert len(res.err.strip().splitlines()) == 1


def test_render_keeps_the_estimates_a_document_carries(run_cli, tmp_path):
    party = tmp_path / "my-party.yaml"
    party.write_text(PARTY_FILE)
    plain = _saved(run_cli, tmp_path)
    mine = tmp_path / "mine.json"
    res = run_cli("sim", plain, "--party", party, "-f", "json", "-o", mine)
    assert res.code == 0, res.err
    text = run_cli("render", mine, "-f", "text")
    assert f"Danger for {BRAKKA}:" in text.out and "level-1 characters" not in text.out
    assert text.err == ""
    html = tmp_path / "mine.html"
    assert run_cli("render", mine, "-f", "html", "-o", html).code == 0
    assert f"for {BRAKKA}:" in html.read_text()
    again = json.loads(run_cli("render", mine, "-f", "json", "--danger").out)
    assert again["rooms"] == json.loads(mine.read_text())["rooms"]
    # A new party or number of trials estimates again.
    other = run_cli("render", mine, "-f", "text", "--party", "fighter:2,fighter:2,expert:2,mage:2")
    assert "Danger for four level-2 characters:" in other.out and BRAKKA not in other.out
    fewer = json.loads(run_cli("render", mine, "-f", "json", "--danger", "--trials", "250").out)
    assert _room(fewer, 4)["danger"]["trials"] == 250
    # A room edited since is fought again (by the default party, and the line says so).
    doc = json.loads(mine.read_text())
    _room(doc, 4)["monsters"][0]["count"] = 4
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(doc))
    res = run_cli("render", edited, "-f", "text")
    room4 = res.out[res.out.index(f"4. {_room(doc, 4)['name']}") :]
    assert room4.split("Danger for ")[1].startswith("four level-1 characters:")
    assert f"Danger for {BRAKKA}:" in res.out  # the other occupied room is kept
    assert "1 made afresh" in res.err and len(res.err.strip().splitlines()) == 1


def _poisoned(doc):
    """Ashlings and the young dragon bite with venom, which FMC Basic gives no numbers."""
    doc["bestiary"]["Ashling"]["damage_type"] = "poison"
    doc["bestiary"]["Young dragon"]["damage_type"] = "poison"


def test_booklets_say_what_the_figures_leave_out(run_cli, tmp_path):
    path = _saved(run_cli, tmp_path, edit=_poisoned)
    text = run_cli("render", path, "-f", "md").out
    line = next(x for x in text.splitlines() if "Danger for" in x and "win 2" in x)
    assert "Not simulated: poison (Ashling)." in line, line
    encounters = text[text.index("Random encounters") : text.index("Room key")]
    # Every row of the poisoned monster says so, whichever roll of the d6 it sits on.
    rows = [r for r in encounters.splitlines() if r.startswith("| ") and "Ashling" in r]
    assert rows and all("not simulated: poison" in r for r in rows), rows
    route = text[text.index("Danger, room after room") :]
    assert "all drop" in route and "; not simulated: poison" in route
    out = tmp_path / "p.html"
    assert run_cli("render", path, "-f", "html", "-o", out).code == 0
    html = out.read_text()
    assert "Not simulated: poison (Ashling)." in html
    cells = [c for c in html.split('<td class="danger">')[1:]]
    assert any("not simulated: poison" in c.split("</td>")[0] for c in cells)
    route = html[html.index("Danger, room after room") :]
    assert "all drop" in route.split("</table>")[0]
    assert "; not simulated: poison" in route.split("</table>")[0]


def test_other_systems_say_the_figures_are_fmc_basics(run_cli, tmp_path):
    f4c = run_cli("site", "--seed", "harrowdeep", "--system", "f4c", "-f", "md").out
    assert "| Danger (FMC Basic's rules) |" in f4c
    out = tmp_path / "f.html"
    assert (
        run_cli("site", "--seed", "harrowdeep", "--system", "f4c", "-f", "html", "-o", out).code
        == 0
    )
    assert "Danger (FMC Basic&#39;s rules)</th>" in out.read_text()
    fm = run_cli("site", "--seed", "harrowdeep", "--system", "fortmayn", "-f", "md").out
    assert "| Danger (FMC Basic's rules, then (Fortmayn)'s) |" in fm
    encounters = fm[fm.index("Random encounters") : fm.index("Room key")]
    assert encounters.count("; (Fortmayn): ") == 6
    for key, name in (("f4c", "f4c"), ("fantasy-core", "Fantasy Core")):
        res = run_cli("sim", "--monster", "ogre", "--system", key, "--seed", "x")
        assert (
            f"{name} is not simulated: " in res.out and "These figures are FMC Basic's." in res.out
        )
    res = run_cli("sim", "--monster", "ogre", "--system", "fortmayn", "--seed", "x")
    assert "not simulated:" not in res.out and "By (Fortmayn)'s own rules" in res.out


def test_the_routes_first_fight_is_the_rooms_own(run_cli):
    doc = json.loads(run_cli("site", "--seed", "harrowdeep", "-f", "json", "--danger").out)
    first = doc["routes"][0]["steps"][0]
    assert first["through"] == _room(doc, first["room"])["danger"]["win"]


def test_document_errors_name_their_json_path(run_cli, tmp_path):
    def crowd(doc):
        _room(doc, 4)["monsters"][0]["count"] = 80

    def broken(doc):
        doc["bestiary"]["Ashling"]["hp"] = 0

    crowded = _saved(run_cli, tmp_path, "crowd.json", crowd)
    index = [r["id"] for r in json.loads(crowded.read_text())["rooms"]].index(4)
    bad = _saved(run_cli, tmp_path, "bad.json", broken)
    for args, message in (
        (["render", crowded], f"site.rooms[{index}]: at most 60 foes in one fight, not 80"),
        (["sim", crowded], f"site.rooms[{index}]: at most 60 foes"),
        (["render", bad], "site.bestiary.Ashling.hp: hit points must be 1 to 10,000"),
        (["sim", bad, "-f", "json"], "site.bestiary.Ashling.hp: "),
    ):
        res = run_cli(*args)
        assert res.code == 1 and message in res.err, (args, res.err)
        assert len(res.err.strip().splitlines()) == 1 and "Traceback" not in res.err
    assert run_cli("render", crowded, "--no-danger").code == 0
