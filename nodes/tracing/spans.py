"""`SpanRecorder`: a LangChain callback handler that turns a turn's runs into spans.

The graph's run is the turn's root span (or maps onto the root the caller
opened, `turn_trace`); a chain run that is a graph node (`langgraph_node` in its
metadata names it) is a node span; a skill's tool run (`skills.middleware.tool_run`)
is a skill span; a chat model run is a model span with the GenAI semantic
conventions. Every other run (routers, LangGraph's internals) adds no span: what
it starts hangs under the nearest span above it.

Only chosen scalars become attributes: never a run's inputs or outputs, so no
customer text, argument or raw customer id reaches the collector.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import BaseMessage
from langchain_core.outputs import LLMResult
from langgraph.errors import GraphBubbleUp
from opentelemetry import trace
from opentelemetry.trace import Link, Span, Status, StatusCode, Tracer
from opentelemetry.util.types import AttributeValue

from nodes.tracing.genai import model_attributes, response_attributes
from nodes.tracing.naming import customer_hash
from skills.middleware.tool_run import SKILL_TAG, SkillRun


@dataclass(frozen=True)
class _Run:
    """Where one LangChain run sits in the span tree."""

    anchor: Span
    """Its own span, or the nearest span above it."""
    root: Span
    owned: bool
    """Whether this run opened `anchor` (and so ends it)."""
    node: tuple[str, str] | None = None
    """(node name, checkpoint namespace) when the run is a node span."""
    started: float = 0.0


class SpanRecorder(BaseCallbackHandler):
    """Records runs as OpenTelemetry spans under `root` (or a root of its own)."""

    run_inline = True  # spans open and close in the run's own order, on its loop

    def __init__(self, tracer: Tracer, root: Span | None = None, links: tuple[Link, ...] = ()):
        self._tracer = tracer
        self._root = root
        self._links = links
        self._runs: dict[UUID, _Run] = {}
        self._first_token: set[UUID] = set()

    def on_chain_start(
        self,
        serialized: dict[str, Any] | None,
        inputs: Any,
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        metadata: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        """The graph's run is the root; a node's run is a node span; others hang on."""
        meta = metadata or {}
        name = str(kwargs.get("name") or "")
        parent = self._runs.get(parent_run_id) if parent_run_id else None
        if parent is None:
            self._runs[run_id] = self._open_root(name, inputs, meta)
            return
        node = (name, str(meta.get("langgraph_checkpoint_ns", "")))
        if meta.get("langgraph_node") != name or parent.node == node:
            self._runs[run_id] = _Run(parent.anchor, parent.root, owned=False, node=parent.node)
            return
        span = self._child(parent, f"node {name}", {"rolegraph.node": name})
        step = meta.get("langgraph_step")
        if isinstance(step, int):
            span.set_attribute("rolegraph.step", step)
        self._runs[run_id] = _Run(span, parent.root, owned=True, node=node)

    def on_chain_end(self, outputs: Any, *, run_id: UUID, **kwargs: Any) -> None:
        """A node's writes may name the turn's audit id and customer: the root gets them."""
        run = self._runs.pop(run_id, None)
        if run is None:
            return
        if run.owned and isinstance(outputs, Mapping):
            _turn_facts(run.root, outputs)
        self._close(run)

    def on_chain_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        """An interrupt is a stop, not a failure; anything else marks the span failed."""
        self._fail(run_id, error)

    def on_tool_start(
        self,
        serialized: dict[str, Any] | None,
        input_str: str,
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        tags: list[str] | None = None,
        metadata: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        """A skill call (or any tool): an `execute_tool` span."""
        parent = self._runs.get(parent_run_id) if parent_run_id else None
        meta = metadata or {}
        name = str(kwargs.get("name") or (serialized or {}).get("name") or "tool")
        attributes: dict[str, AttributeValue] = {"gen_ai.operation.name": "execute_tool"}
        attributes["gen_ai.tool.name"] = name
        if SKILL_TAG in (tags or ()):
            attributes["rolegraph.skill.id"] = name
            attributes["rolegraph.skill.version"] = str(meta.get("rolegraph_skill_version", ""))
            attributes["rolegraph.skill.role"] = str(meta.get("rolegraph_role", ""))
        self._open(run_id, parent, f"execute_tool {name}", attributes)

    def on_tool_end(self, output: Any, *, run_id: UUID, **kwargs: Any) -> None:
        """A skill's outcome as its audit row has it."""
        run = self._runs.pop(run_id, None)
        if run is None:
            return
        if isinstance(output, SkillRun):
            run.anchor.set_attributes(_skill_attributes(output))
            if output.status in ("error", "timeout"):
                run.anchor.set_status(Status(StatusCode.ERROR, output.error_code or output.status))
        self._close(run)

    def on_tool_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        """A tool run cut short (cancelled, a control signal, a bug)."""
        self._fail(run_id, error)

    def on_chat_model_start(
        self,
        serialized: dict[str, Any] | None,
        messages: list[list[BaseMessage]],
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        metadata: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        """A model call: a `chat <model>` span with the request's GenAI attributes."""
        attributes = model_attributes(metadata or {}, kwargs.get("invocation_params") or {})
        model = attributes.get("gen_ai.request.model", "model")
        parent = self._runs.get(parent_run_id) if parent_run_id else None
        self._open(run_id, parent, f"chat {model}", attributes)

    def on_llm_new_token(self, token: Any, *, run_id: UUID, **kwargs: Any) -> None:
        """The first streamed chunk: the time to it, in seconds."""
        run = self._runs.get(run_id)
        if run is None or run_id in self._first_token:
            return
        self._first_token.add(run_id)
        waited = time.perf_counter() - run.started
        run.anchor.set_attribute("gen_ai.response.time_to_first_chunk", waited)

    def on_llm_end(self, response: LLMResult, *, run_id: UUID, **kwargs: Any) -> None:
        """Tokens used and the model that answered."""
        self._first_token.discard(run_id)
        run = self._runs.pop(run_id, None)
        if run is None:
            return
        run.anchor.set_attributes(response_attributes(response))
        self._close(run)

    def on_llm_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        """A failed model call (the ladder moves on; the span says why)."""
        self._first_token.discard(run_id)
        self._fail(run_id, error)

    def _open_root(self, name: str, inputs: Any, meta: Mapping[str, Any]) -> _Run:
        if self._root is not None:
            return _Run(self._root, self._root, owned=False)
        span = self._tracer.start_span("rolegraph turn", links=self._links)
        span.set_attribute("rolegraph.mode", name or "graph")
        thread_id = meta.get("thread_id")
        if isinstance(thread_id, str):
            span.set_attribute("rolegraph.thread_id", thread_id)
        if isinstance(inputs, Mapping):
            _turn_facts(span, inputs)
        return _Run(span, span, owned=True)

    def _open(
        self, run_id: UUID, parent: _Run | None, name: str, attributes: dict[str, AttributeValue]
    ) -> None:
        if parent is None and self._root is not None:
            parent = _Run(self._root, self._root, owned=False)
        if parent is None:
            span = self._tracer.start_span(name, attributes=attributes)
            root = span
        else:
            span, root = self._child(parent, name, attributes), parent.root
        self._runs[run_id] = _Run(span, root, owned=True, started=time.perf_counter())

    def _child(self, parent: _Run, name: str, attributes: dict[str, AttributeValue]) -> Span:
        context = trace.set_span_in_context(parent.anchor)
        return self._tracer.start_span(name, context=context, attributes=attributes)

    def _fail(self, run_id: UUID, error: BaseException) -> None:
        run = self._runs.pop(run_id, None)
        if run is None:
            return
        if run.owned and isinstance(error, GraphBubbleUp):
            run.anchor.set_attribute("rolegraph.interrupted", True)
        elif run.owned:
            # The type only: an exception's text may quote customer data.
            run.anchor.set_status(Status(StatusCode.ERROR, type(error).__name__))
        self._close(run)

    @staticmethod
    def _close(run: _Run) -> None:
        if run.owned:
            run.anchor.end()


def _turn_facts(span: Span, values: Mapping[str, Any]) -> None:
    """The audit id and the hashed customer, wherever a run's values name them."""
    audit_id = values.get("audit_id")
    if isinstance(audit_id, str) and audit_id:
        span.set_attribute("rolegraph.audit_id", audit_id)
    customer = values.get("customer") or values.get("user_id")
    if isinstance(customer, str) and customer:
        span.set_attribute("rolegraph.customer_hash", customer_hash(customer))


def _skill_attributes(run: SkillRun) -> dict[str, AttributeValue]:
    attributes: dict[str, AttributeValue] = {
        "rolegraph.skill.status": run.status,
        "rolegraph.skill.retries": run.retries,
        "rolegraph.skill.duration_ms": run.duration_ms,
        "rolegraph.skill.args_hash": run.args_hash,
    }
    optional = {
        "rolegraph.skill.error_code": run.error_code,
        "rolegraph.skill.breaker_state": run.breaker_state,
        "rolegraph.skill.approval_id": run.approval_id,
    }
    attributes.update({k: v for k, v in optional.items() if v is not None})
    return attributes
