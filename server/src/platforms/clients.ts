// The agent clients that load skills: what each reads and how much. Rules, compile and the library read these facts
// here, so a client's change is one edit.

/** The Claude API's limit for one uploaded skill folder. */
export const UPLOAD_LIMIT_BYTES = 8 * 1024 * 1024;
