"""Mall of Horror's rule book (contract.RuleBook): which rule is behind each question and each line of the
narration, the rules by phase in the order of play, and the table options that change a rule.

The rules come from the rules reference (shared/rules/mall-of-horror.md: its default rulings, and its table options
as the rules they change) and the seeds' words; the catalogue says them in the four languages (locale/*/rules.po:
mall.rules.*). A phase's rules follow a round as a group meets them: setup and placement, then phases a) to f) of a
round (the votes with the truck search, where a group first votes), then rescue and the score.
"""

from __future__ import annotations

from companion.contract import RuleBook

RULES = RuleBook(
    family="mall",
    phases=(
        ("setup", ("setup", "characters", "locations", "placement", "zombie_dice")),
        ("truck", ("round", "truck", "truck_cards", "vote", "vote_closed", "revote")),
        ("chief", ("chief", "badge")),
        ("arrival", ("arrival", "camera")),
        ("destination", ("destination", "chief_first", "no_destination")),
        ("move", ("reveal", "fall", "move", "sprint")),
        ("attack", ("attraction", "defence", "supermarket", "window", "threat", "weapon", "hardware", "hidden",
                    "victim", "victim_tie", "parking", "zombie_player")),
        ("end", ("rescue", "score")),
    ),
    about={
        # Setup and placement.
        "mall.n.badge.setup": "setup", "mall.n.deck.setup": "setup",
        "mall.n.close.setup": "locations",
        "mall.q.place": "placement", "mall.n.place": "placement",
        "mall.n.setup.zombies": "zombie_dice", "mall.n.put.dice": "zombie_dice", "mall.n.dice.on_closed": "zombie_dice",
        # A round; a) the truck search, and every vote.
        "mall.n.round": "round", "mall.q.wait": "round",
        "mall.n.truck": "truck", "mall.q.vote.truck": "truck", "mall.n.vote.start.truck": "truck",
        "mall.n.vote.won.truck": "truck", "mall.n.vote.alone.truck": "truck", "mall.n.vote.tie2.truck": "truck",
        "mall.n.deck": "truck_cards", "mall.q.gift": "truck_cards",
        "mall.n.vote.ballots": "vote", "mall.n.ballot": "vote", "mall.n.voted": "vote",
        "mall.n.vote.closed": "vote_closed",
        "mall.n.vote.tie": "revote", "mall.q.revote": "revote",
        # b) the Chief election.
        "mall.n.chief": "chief", "mall.q.vote.chief": "chief", "mall.n.vote.start.chief": "chief",
        "mall.n.vote.won.chief": "chief", "mall.n.vote.alone.chief": "chief", "mall.n.vote.tie2.chief": "chief",
        "mall.n.badge.elected": "chief",
        "mall.n.badge.passes": "badge",
        # c) zombie arrival.
        "mall.n.arrival": "arrival", "mall.n.dice": "arrival",
        "mall.q.camera": "camera", "mall.n.card.camera": "camera",
        # d) choose destination.
        "mall.q.destination": "destination", "mall.q.destinations": "destination", "mall.n.chose": "destination",
        "mall.q.chief_destination": "chief_first", "mall.n.destination.chief": "chief_first",
        "mall.n.destination.none": "no_destination", "mall.n.stay.no_destination": "no_destination",
        # e) reveal and move.
        "mall.n.reveal": "reveal", "mall.n.destination": "reveal",
        "mall.n.remove.fall": "fall", "mall.n.close.fall": "fall",
        "mall.q.move": "move", "mall.n.move": "move", "mall.n.stay": "move",
        "mall.q.sprint": "sprint", "mall.n.card.sprint": "sprint", "mall.n.move.sprint": "sprint",
        "mall.n.move.sprint_full": "sprint", "mall.n.move.sprint_fallen": "sprint", "mall.n.stay.sprint": "sprint",
        "mall.n.stay.sprint_full": "sprint", "mall.n.stay.sprint_fallen": "sprint",
        # f) zombie attack.
        "mall.n.put.crowd": "attraction", "mall.n.put.pinups": "attraction", "mall.n.attraction": "attraction",
        "mall.n.breach.defence": "defence", "mall.n.hold": "defence",
        "mall.n.breach.supermarket": "supermarket", "mall.q.attack.supermarket": "supermarket",
        "mall.q.attack": "window", "mall.n.pass": "window", "mall.n.repelled": "window",
        "mall.n.card.threat": "threat",
        "mall.n.remove.weapon": "weapon",
        "mall.n.card.hardware": "hardware",
        "mall.n.card.hidden": "hidden", "mall.n.all_hidden": "hidden",
        "mall.n.vote.start.victim": "victim", "mall.q.vote.victim": "victim", "mall.n.vote.won.victim": "victim",
        "mall.n.vote.alone.victim": "victim", "mall.q.victim": "victim", "mall.n.kill": "victim",
        "mall.n.vote.won.victim_one": "victim", "mall.n.vote.alone.victim_one": "victim",
        "mall.n.vote.drawn_one": "victim_tie",
        "mall.n.remove.feast": "victim",
        "mall.n.vote.tie2.victim": "victim_tie", "mall.n.vote.tie2.victim_colour": "victim_tie",
        "mall.n.vote.drawn": "victim_tie", "mall.n.kill.drawn": "victim_tie", "mall.n.kill.random": "victim_tie",
        "mall.n.parking.eats": "parking", "mall.q.attack.parking": "parking", "mall.n.remove.ate": "parking",
        "mall.n.remove.parking": "parking", "mall.n.repelled.parking": "parking",
        "mall.n.all_hidden.parking": "parking",
        "mall.q.zombie_destination": "zombie_player", "mall.n.destination.zombie": "zombie_player",
        "mall.n.out": "zombie_player", "mall.n.put.zombie_player": "zombie_player",
        "mall.n.zombie_player": "zombie_player",
        # The end.
        "mall.n.rescue": "rescue",
        "mall.n.score": "score", "mall.n.tiebreak": "score", "mall.n.cards": "score", "mall.n.winner": "score",
        "mall.n.winners": "score",
    },
    options={
        "revote": ("threats_carry_to_revote",),
        "threat": ("threats_carry_to_revote",),
        "victim_tie": ("second_tie_victim",),
        "rescue": ("end_timing",),
    },
)

__all__ = ["RULES"]
