"""The undo steps a clean close keeps for the next opening (campaign_journal.keep_undo and
kept_undo): given back only when they lead to the campaign file as it is."""

from __future__ import annotations

from afdesk.encounter.campaign.edits import RenameCampaign, StartSession
from afdesk.encounter.campaign.history import CampaignHistory
from afdesk.encounter.campaign.state import Campaign
from afdesk.storage import campaign as store
from afdesk.storage import campaign_journal as cj
from afdesk.storage.codec import digest


def _closed(tmp_path) -> tuple[CampaignHistory, str]:
    h = CampaignHistory(Campaign(name="jade"))
    h.push(RenameCampaign("The Jade Road"))
    h.push(StartSession())
    h.push(RenameCampaign("Undone"))
    h.undo()
    sha = store.save_campaign(tmp_path, h.campaign)
    cj.keep_undo(tmp_path, h, sha)
    return h, sha


def test_kept_steps_come_back_and_undo_to_the_start(tmp_path):
    h, sha = _closed(tmp_path)
    steps, problem = cj.kept_undo(tmp_path, h.campaign, sha)
    assert problem == ""
    assert [s.text for s in steps] == [
        "Rename the campaign to 'The Jade Road'",
        "Session 2 starts: everyone has 3 Shifts again, and so has the referee (R10)",
    ], "the step undone before the close is not kept"
    again = CampaignHistory(h.campaign)
    again.restore(steps)
    assert again.is_clean() and not again.can_redo()
    again.undo()
    again.undo()
    assert again.campaign == Campaign(name="jade")
    assert not cj.undo_path(tmp_path).exists(), "read once"


def test_a_file_changed_since_or_a_damaged_undo_file_gives_none_with_the_reason(tmp_path):
    h, sha = _closed(tmp_path)
    other = h.campaign.replace(session=5)
    steps, problem = cj.kept_undo(tmp_path, other, digest(store.encode_campaign(other)))
    assert steps == [] and "changed since afdesk last closed it" in problem
    _closed(tmp_path)
    cj.undo_path(tmp_path).write_bytes(b'{"format": ')
    steps, problem = cj.kept_undo(tmp_path, h.campaign, sha)
    assert steps == [] and problem.startswith(".campaign.afcamp-undo is damaged")


def test_steps_that_do_not_lead_to_the_campaign_are_refused(tmp_path):
    h, sha = _closed(tmp_path)
    steps, problem = cj.kept_undo(tmp_path, h.campaign.replace(session=9), sha)
    assert steps == [] and "does not fit the campaign" in problem
