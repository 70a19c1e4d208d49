"""The authoring agent: model clients, the guarded tool loop, spec tools, traces and replay (no Qt).

Who owns what:

- events.py     typed model events (TextDelta, ToolCall, Usage, Finish), ModelRequest, ToolSpec
- sse.py        server-sent events framing over an async byte stream
- accumulate.py Chat Completions chunks -> events; tool-call delta merging (index, then id)
- clients.py    ModelClient interface; Chat Completions and Responses clients over httpx;
                the loopback-only guard (PROTO_STUDIO_ALLOW_MODEL_REQUESTS=0)
- errors.py     ModelError kinds (auth, rate_limit, retryable, context_length, fatal, blocked)
- profiles.py   provider profiles and their quirks (OpenAI, Ollama, LM Studio, llama.cpp, ...);
                per-model list prices and `cost` (0 on a local server)
- registry.py   Tool (schema, description, examples, timeout, idempotent) and ToolRegistry
- guards.py     Limits (turn cap, token budget), StuckDetector, RetryPolicy
- loop.py       AgentLoop: the turn loop, tool batches, askUser/approval pauses, cancellation;
                every call answered, requests sized to the window and budget, the nudge and
                the `no_changes` outcome, time limits
- tokens.py     token counts (tiktoken for OpenAI models, a calibrated estimate), context windows
- textcalls.py  tool calls weak models write as text (<tool_call>, functions.NAME:, bare JSON)
- draft.py      Draft: revisions over the starting spec; preview, apply, discard, undo
- tools.py      the eleven spec tools bound to a draft (outline ... askUser, reviseSpec: the
                guarded whole-spec revision of root, window and theme), PreviewProvider
- compound.py   the opt-in compound tool set for small models (edit, insert, remove, move,
                setState, setTheme, check), expanding into the same validated patches
- reasoning.py  reasoning effort and every provider's translation of it
- guide.py      the spec guide and system prompt, generated from the JSON Schema
- session.py    AgentSession: draft + tools + loop + trace, the object the UI and CLI drive:
                run (with the selected node's subtree), follow_up, resume, cancel, save
- trace.py      Tracer (trace id, steps), logging, secret masking
- snapshot.py   versioned run snapshots (asave_snapshot writes off the loop); replay.py re-runs
                one without a model (Replayer,
                replay(on_event=) streams the events of a live run); resume.py decodes and
                checks a saved unfinished run whole and continues it (agent --resume)
- generate.py   New from description: the starting spec, the instruction, the library fields
- evaluate.py   the authoring eval (`proto-studio eval`): tasks, checks, scores, the report
- router.py     local vs cloud model per task; keys.py API keys (keychain, env, session;
                aget/aset/adelete keep the keychain off the event loop)
- run_events.py the run's events: a typed union (RunEvent) of frozen dataclasses, one TERMINAL,
                their JSON form (the CLI's --events lines)
- driver.py     RunDriver: one document's runs and its draft's review in the workspace (apply,
                discard, undo, re-run a stale draft, rebase on the user's edits); headless
- config.py     AgentConfig and its file (agent.json); providers.py where a run's model comes
                from (ModelSource, ProviderModels, FixedModel), check_connection, the local probe
- describe.py   short status-line labels for tool calls
- testing.py    ScriptedModel for tests; cli.py `proto-studio agent`
"""
