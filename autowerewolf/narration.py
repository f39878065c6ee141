"""The moderator's narration of public transitions. It only ever receives public events,
so it cannot leak what it was never given."""

from collections.abc import Sequence
from typing import Protocol

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage

from autowerewolf.prompts.moderator import MODERATOR_PROMPT
from autowerewolf.prompts.render import describe, public_only
from autowerewolf.rules.events import Event


class Narrator(Protocol):
    def narrate(self, events: Sequence[Event]) -> str | None: ...


class TemplateNarrator:
    """One fixed sentence per public event: instant and exact."""

    def narrate(self, events: Sequence[Event]) -> str | None:
        lines = [describe(e) for e in public_only(events)]
        return "\n".join(lines) or None


class LLMNarrator:
    """The moderator model retells each step's public events; falls back to the template."""

    def __init__(self, chat: BaseChatModel) -> None:
        self.chat = chat
        self.template = TemplateNarrator()

    def narrate(self, events: Sequence[Event]) -> str | None:
        facts = self.template.narrate(events)
        if facts is None:
            return None
        try:
            reply = self.chat.invoke([SystemMessage(MODERATOR_PROMPT), HumanMessage(facts)])
        except Exception:  # any model failure: the template's exact facts stand in
            return facts
        text = reply.content if isinstance(reply.content, str) else ""
        return text.strip() or facts
