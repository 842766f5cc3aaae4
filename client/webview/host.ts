// The page's side of a webview: VS Code gives each page one object to post messages to the extension and to keep
// state across the panel being hidden and shown.

export interface VsCodeApi<Message, State> {
  postMessage(message: Message): void;
  getState(): State | undefined;
  setState(state: State): void;
}

declare function acquireVsCodeApi<Message, State>(): VsCodeApi<Message, State>;

/** The page's host (callable once per page: VS Code refuses a second call). */
export function vsCodeHost<Message, State = never>(): VsCodeApi<Message, State> {
  return acquireVsCodeApi<Message, State>();
}
