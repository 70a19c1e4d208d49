"""Platform modules a prototype may call, their registry, consent policy and generated surfaces (no Qt).

Who owns what:

- `module`       what a module is: calls (args/result JSON Schemas, sensitive, side effect), events
- `modules/*`    the shipped modules: test (echo), units, calc, clipboard, share, device
- `registry`     `default_registry()`: the validator's catalog, `capabilities()`/`modules()` for
                 the agent, argument checking and `execute(call, args, context=...)`
- `consent`      `ConsentBroker`: asks the UI (the only `ConsentAnswerer`), remembers "always"
- `host`         `PlatformHost`: runtime `PlatformRequest` -> consent -> execute -> (status, result)
- `credentials`  keychain entries of a module; never in args, results, /data or model context
- `surfaces`     a deterministic form spec for a call; `cli`: `proto-studio surface MODULE.CALL`
- `paths`, `threads`  where files live (PROTO_STUDIO_HOME), blocking work off the event loop

The Qt side (consent dialog, clipboard and share-picker adapters) is `studio.ui.consent`.
"""
