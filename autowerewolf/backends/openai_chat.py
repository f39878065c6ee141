"""The OpenAI-compatible chat model the `api` and `local` backends use. langchain_openai is
imported here alone, when a model is built: a game of programs never pays for it."""

import json
import warnings
from collections.abc import AsyncIterator, Generator, Iterator
from typing import Any

from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.outputs import ChatGenerationChunk, ChatResult
from langchain_openai import ChatOpenAI
from pydantic import BaseModel, ValidationError

from autowerewolf.backends.answer_format import (
    ANSWER_NOTES,
    FORMATS,
    AnswerFormat,
    refusal_of_format,
    response_format,
    schema_instruction,
    step_down_note,
)
from autowerewolf.backends.call_error import redacted
from autowerewolf.backends.grammar import compact_grammar
from autowerewolf.backends.strict_schema import bounded_answer
from autowerewolf.prompts.replies import UnusableReply, read_json_object

# LangChain warns on OpenAI's refusal of a schema and advises function calling; the refusal
# is handled here, by the step down (backends/answer_format.py).
warnings.filterwarnings(
    "ignore", message="Invalid schema for OpenAI's structured output", category=UserWarning
)


# A request to the server: the messages and the call's arguments.
Request = tuple[list[BaseMessage], dict[str, Any]]


def answer_class(response_format_: object) -> type[BaseModel] | None:
    """The pydantic answer class a structured call was given (LangChain passes it as is)."""
    if isinstance(response_format_, type) and issubclass(response_format_, BaseModel):
        return response_format_
    return None


def with_instruction(messages: list[BaseMessage], instruction: str) -> list[BaseMessage]:
    """`messages` with `instruction` closing the last one when it is the user's text (chat
    templates that require turns to alternate refuse two user turns in a row), else after it."""
    last = messages[-1] if messages else None
    if isinstance(last, HumanMessage) and isinstance(last.content, str):
        closed = last.model_copy(update={"content": f"{last.content}\n\n{instruction}"})
        return [*messages[:-1], closed]
    return [*messages, HumanMessage(instruction)]


class RedactingChatOpenAI(ChatOpenAI):
    """ChatOpenAI whose errors never carry the API key, even when the server echoes it, and
    whose structured answers are asked in the strict subset every provider accepts, stepping
    down when a server refuses it (backends/answer_format.py), and read and bounded here
    (backends/strict_schema.py).

    The OpenAI client puts the server's error body into the exception message; a new
    exception with the redacted text replaces it (`from None`: no chained original)."""

    @property
    def _format_key(self) -> str:
        """The model as the step down remembers it: its server and its name."""
        return f"{self.openai_api_base} {self.model_name}"

    def _converted(self, kwargs: dict[str, Any]) -> type[BaseModel] | None:
        """The answer class of a structured call this client asks in an answer format."""
        return answer_class(kwargs.get("response_format"))

    def _streaming_disabled(self, **kwargs: Any) -> bool:
        """A structured answer is never streamed: it is read whole, also when the graph runs
        under a streaming callback (LangGraph's `messages` mode)."""
        if answer_class(kwargs.get("response_format")) is not None:
            return True
        return super()._streaming_disabled(**kwargs)

    def _asked(
        self, messages: list[BaseMessage], kwargs: dict[str, Any], answer: type[BaseModel]
    ) -> tuple[AnswerFormat, list[BaseMessage], dict[str, Any]]:
        """The call's messages and arguments in this model's current answer format."""
        form = FORMATS.current(self._format_key)
        asked = {**kwargs, "response_format": response_format(answer, form)}
        if form is AnswerFormat.JSON_MODE:
            messages = with_instruction(messages, schema_instruction(answer))
        return form, messages, asked

    def _answered(
        self, result: ChatResult, answer: type[BaseModel], notes: list[str]
    ) -> ChatResult:
        """Each answer read by the one reply parser (prompts/replies.py: JSON mode's answer
        may come fenced or after a think block) and bounded to its class
        (backends/strict_schema.py), with the notes of its cuts and of a step down; an
        answer that does not fit fails the call with the answer."""
        for generation in result.generations:
            message = generation.message
            if not isinstance(message, AIMessage):
                continue
            try:
                parsed, cuts = bounded_answer(answer, read_json_object(str(message.content)).data)
            except (UnusableReply, ValidationError) as err:
                message.additional_kwargs[ANSWER_NOTES] = notes
                raise redacted(err, message) from None
            message.additional_kwargs["parsed"] = parsed
            message.additional_kwargs[ANSWER_NOTES] = [*notes, *cuts]
        return result

    def _stepped(self, err: Exception, form: AnswerFormat, notes: list[str]) -> bool:
        """Whether the call refused in `form` is asked again (in the model's next format)."""
        refusal = refusal_of_format(err)
        if refusal is None:
            return False
        after = FORMATS.after_refusal(self._format_key, form)
        if after is None:
            return False
        now, stepped = after
        if stepped:
            notes.append(step_down_note(self.model_name, form, now, refusal))
        return True

    def _call(
        self, messages: list[BaseMessage], kwargs: dict[str, Any]
    ) -> Generator[Request, ChatResult | Exception, ChatResult]:
        """One call, written once for the synchronous and the asynchronous client: it yields
        each request to send and is sent what the server gave (a result or its error). A
        structured call is asked in the model's answer format, again in the next one while a
        server refuses a format, and its answer read and bounded; every error is redacted."""
        answer = self._converted(kwargs)
        if answer is None:
            outcome = yield messages, kwargs
            if isinstance(outcome, Exception):
                raise redacted(outcome) from None
            return outcome
        notes: list[str] = []
        while True:
            form, asked_messages, asked = self._asked(messages, kwargs, answer)
            outcome = yield asked_messages, asked
            if not isinstance(outcome, Exception):
                return self._answered(outcome, answer, notes)
            if not self._stepped(outcome, form, notes):
                raise redacted(outcome, notes=tuple(notes)) from None

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        call = self._call(messages, kwargs)
        sent, asked = next(call)
        outcome: ChatResult | Exception
        while True:
            try:
                outcome = super()._generate(sent, stop, run_manager, **asked)
            except Exception as err:
                outcome = err
            try:
                sent, asked = call.send(outcome)
            except StopIteration as done:
                answered: ChatResult = done.value
                return answered

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        call = self._call(messages, kwargs)
        sent, asked = next(call)
        outcome: ChatResult | Exception
        while True:
            try:
                outcome = await super()._agenerate(sent, stop, run_manager, **asked)
            except Exception as err:
                outcome = err
            try:
                sent, asked = call.send(outcome)
            except StopIteration as done:
                answered: ChatResult = done.value
                return answered

    def _create_chat_result(self, response: Any, generation_info: Any = None) -> ChatResult:
        """ChatOpenAI drops a reasoning model's separate `reasoning_content`; keep it in the
        message's additional_kwargs, where the LLM player records it privately."""
        result = super()._create_chat_result(response, generation_info)
        # `parsed` holds the answer object where the client's types say None: dumping it
        # warns on every structured call; ChatOpenAI leaves it out of its own dump too.
        data = (
            response
            if isinstance(response, dict)
            else response.model_dump(exclude={"choices": {"__all__": {"message": {"parsed"}}}})
        )
        for generation, choice in zip(result.generations, data.get("choices") or [], strict=False):
            thinking = (choice.get("message") or {}).get("reasoning_content")
            if thinking:
                generation.message.additional_kwargs["reasoning_content"] = thinking
        return result

    def _stream(self, *args: Any, **kwargs: Any) -> Iterator[ChatGenerationChunk]:
        try:
            yield from super()._stream(*args, **kwargs)
        except Exception as err:
            raise redacted(err) from None

    async def _astream(self, *args: Any, **kwargs: Any) -> AsyncIterator[ChatGenerationChunk]:
        try:
            async for chunk in super()._astream(*args, **kwargs):
                yield chunk
        except Exception as err:
            raise redacted(err) from None


class LlamaServerChat(RedactingChatOpenAI):
    """The `local` backend's client: llama-server is sent a structured answer's schema as a
    compact grammar (backends/grammar.py) instead of a `response_format`, and the answer is
    parsed here, where the OpenAI client would have parsed it. Same answers, about half the
    generated tokens for a vote."""

    def _converted(self, kwargs: dict[str, Any]) -> type[BaseModel] | None:
        """A class the compact grammar covers goes as that grammar (`_get_request_payload`),
        as the embedded model's measured games were played; any other in an answer format."""
        if compact_grammar(kwargs.get("response_format")) is not None:
            return None
        return super()._converted(kwargs)

    def _get_request_payload(
        self, input_: Any, *, stop: list[str] | None = None, **kwargs: Any
    ) -> dict[str, Any]:
        payload: dict[str, Any] = super()._get_request_payload(input_, stop=stop, **kwargs)
        answer = answer_class(payload.get("response_format"))
        grammar = None if answer is None else compact_grammar(answer)
        if grammar is not None:
            del payload["response_format"]
            payload["extra_body"] = {**(payload.get("extra_body") or {}), "grammar": grammar}
        return payload

    def _with_parsed(self, result: ChatResult, kwargs: dict[str, Any]) -> ChatResult:
        """Each answer's JSON as LangChain's structured-output parser reads it; an answer
        that is not JSON (cut short by the token limit) fails the call with the answer."""
        if compact_grammar(kwargs.get("response_format")) is None:
            return result
        for generation in result.generations:
            message = generation.message
            try:
                message.additional_kwargs["parsed"] = json.loads(str(message.content))
            except json.JSONDecodeError as err:
                raise redacted(err, message if isinstance(message, AIMessage) else None) from None
        return result

    def _generate(self, *args: Any, **kwargs: Any) -> ChatResult:
        return self._with_parsed(super()._generate(*args, **kwargs), kwargs)

    async def _agenerate(self, *args: Any, **kwargs: Any) -> ChatResult:
        return self._with_parsed(await super()._agenerate(*args, **kwargs), kwargs)
