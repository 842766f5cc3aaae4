// Starts skillgraph-server for Zed, and hands it the user's `lsp.skillgraph` settings: `settings` as the
// `skillgraph` section of the workspace configuration, `initialization_options` as they are.
use zed_extension_api::{self as zed, serde_json, settings::LspSettings, LanguageServerId, Result, Worktree};

struct Skillgraph;

impl zed::Extension for Skillgraph {
    fn new() -> Self {
        Skillgraph
    }

    fn language_server_command(&mut self, _id: &LanguageServerId, worktree: &Worktree) -> Result<zed::Command> {
        let command = worktree
            .which("skillgraph-server")
            .ok_or("skillgraph-server is not on PATH: run `npm link` in a Skillgraph checkout (see its README)")?;
        Ok(zed::Command { command, args: vec!["--stdio".into()], env: worktree.shell_env() })
    }

    fn language_server_initialization_options(
        &mut self,
        id: &LanguageServerId,
        worktree: &Worktree,
    ) -> Result<Option<serde_json::Value>> {
        Ok(LspSettings::for_worktree(id.as_ref(), worktree)?.initialization_options)
    }

    fn language_server_workspace_configuration(
        &mut self,
        id: &LanguageServerId,
        worktree: &Worktree,
    ) -> Result<Option<serde_json::Value>> {
        let settings = LspSettings::for_worktree(id.as_ref(), worktree)?.settings;
        Ok(settings.map(|section| serde_json::json!({ "skillgraph": section })))
    }
}

zed::register_extension!(Skillgraph);
