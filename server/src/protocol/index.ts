// What the language server and its editors say to each other beyond LSP: the `skillgraph/*` requests and the values
// they carry, the commands the server's code lenses run, and the settings the server reads. The wire is declared
// here and nowhere else: the modules that make these values import their types from here, so renaming an internal
// type leaves the wire as it was, and a change to the wire fails the build of every side that reads or writes it.
export * from './changes';
export * from './common';
export * from './compile';
export * from './context';
export * from './graph';
export * from './graphMarks';
export * from './library';
export * from './requests';
export * from './settings';
