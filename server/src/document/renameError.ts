/** A rename refused (an invalid or taken name, nothing renamable there): its message is shown to the user. */
export class RenameError extends Error {}
