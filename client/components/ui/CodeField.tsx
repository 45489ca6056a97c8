import { TextField, type TextFieldProps } from './TextField';

/**
 * Input attributes for case-sensitive codes. react-aria's useTextField hands autoCapitalize on to
 * the <input>, but the TextField props type leaves it out, so it travels in a spread object.
 */
const CODE_INPUT = { autoCapitalize: 'none', autoCorrect: 'off', spellCheck: 'false', autoComplete: 'off' } as const;

/**
 * A TextField for case-sensitive codes (access codes, tokens): phones must neither capitalise the
 * first letter nor "correct" the code, and browsers must not offer remembered values.
 */
export function CodeField(props: TextFieldProps) {
  return <TextField {...CODE_INPUT} {...props} />;
}
