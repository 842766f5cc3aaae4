// The part of mvdan-sh's API (mvdan/sh's syntax package compiled to JavaScript with GopherJS) this project reads. The
// package ships no types; nodes are Go structs, told apart by `syntax.NodeType`.
declare module 'mvdan-sh' {
  /** A position in the parsed text: its offset counts UTF-8 bytes. */
  export interface ShPos {
    Offset(): number;
  }
  /** Any node of the tree; its fields depend on its type (see mvdan.cc/sh/v3/syntax). */
  export interface ShNode {
    Pos(): ShPos;
    End(): ShPos;
    [field: string]: unknown;
  }
  export interface ShParser {
    Parse(text: string, name: string): ShNode;
  }
  /** What `Parse` throws on text that is not shell: where it stopped. */
  export interface ShParseError {
    Pos: ShPos;
    Text: string;
  }
  export const syntax: {
    NewParser(...options: unknown[]): ShParser;
    KeepComments(keep: boolean): unknown;
    Variant(language: unknown): unknown;
    LangBash: unknown;
    NodeType(node: ShNode): string;
  };
}
