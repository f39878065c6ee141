"""A table's rules text copied into each seat's or shared view's slot of the embedded server.

Every seat's system prompt starts with the same rules text (prompts.table_rules:
`table_prompt`), about 500 tokens. A slot pinned to one seat or one shared view
(LocalServer) would compute it again on its first call: six to twelve times a game, up to a
minute on 2 cores. So the text is computed once, in the server's spare slot, saved with
llama.cpp's slot save, and restored into every other slot at the game's first call
(milliseconds each)."""

import hashlib
import logging
from collections.abc import Iterable

import httpx

log = logging.getLogger(__name__)


class SlotPrimer:
    """Primes the slots of one llama-server (started with `--slot-save-path`)."""

    def __init__(self, root_url: str, alias: str, spare: int) -> None:
        self.root_url = root_url
        self.alias = alias
        self.spare = spare
        self._saved: set[str] = set()  # the files of the texts computed so far
        self._primed: dict[int, str] = {}  # slot -> the file restored into it

    def prime(self, slots: Iterable[int], text: str) -> None:
        """Start each of `slots` with a prompt whose system message begins with `text`.
        Best effort: a slot not primed costs its seat's first call the time it would take
        anyway, so a failure is a warning."""
        name = f"prefix-{hashlib.sha256(text.encode()).hexdigest()[:16]}.bin"
        wanted = [slot for slot in slots if self._primed.get(slot) != name]
        if not wanted:
            return
        try:
            with httpx.Client(base_url=self.root_url, timeout=300, trust_env=False) as client:
                if name not in self._saved:
                    computed = client.post(
                        "/v1/chat/completions",
                        json={
                            "model": self.alias,
                            "messages": [{"role": "system", "content": text}],
                            "max_tokens": 1,
                            "id_slot": self.spare,
                        },
                    )
                    computed.raise_for_status()
                    saved = client.post(f"/slots/{self.spare}?action=save", json={"filename": name})
                    saved.raise_for_status()
                    self._saved.add(name)
                for slot in wanted:
                    restored = client.post(f"/slots/{slot}?action=restore", json={"filename": name})
                    restored.raise_for_status()
                    self._primed[slot] = name
        except httpx.HTTPError as err:
            log.warning("slots not primed with the rules text (%s): first calls compute it", err)
