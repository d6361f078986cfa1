/** Character codes of JSON's punctuation, for the scanners that read JSON text without parsing it. */
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;
export const OPEN_BRACKET = 0x5b;
export const CLOSE_BRACKET = 0x5d;
export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const COLON = 0x3a;
export const COMMA = 0x2c;
export const DIGIT_0 = 0x30;
export const DIGIT_9 = 0x39;
