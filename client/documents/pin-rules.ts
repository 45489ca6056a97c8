import type { MessageKey } from '../lib/intl';

/**
 * The device PIN she sets when she chooses to keep copies (issue 16). Digits only, so a phone
 * shows its number pad; at least six, as a bank card's PIN is four and this guards more. The PIN
 * wraps her key with PBKDF2 (600,000 iterations) and five wrong tries delete the copies, so the
 * limit that matters on the device is the tries; a longer PIN also slows down anyone who copies
 * the device's storage away and guesses there, which is why up to 20 digits are welcome.
 */
export const MIN_PIN_DIGITS = 6;
export const MAX_PIN_DIGITS = 20;

export type NewPinField = 'pin' | 'pinAgain';
export type NewPinErrors = Partial<Record<NewPinField, MessageKey>>;

/** One digit repeated, or a run up or down (123456, 987654): the first PINs anyone tries. */
function isTrivial(pin: string): boolean {
  const digits = [...pin].map(Number);
  const steps = new Set(digits.slice(1).map((digit, index) => (digit - digits[index]! + 10) % 10));
  return steps.size === 1 && [0, 1, 9].includes([...steps][0]!);
}

/** The messages under the two fields; empty when the PIN can be set. */
export function checkNewPin(pin: string, pinAgain: string): NewPinErrors {
  const errors: NewPinErrors = {};
  if (pin === '') errors.pin = 'offline.pin.errors.required';
  else if (!/^\d+$/.test(pin)) errors.pin = 'offline.pin.errors.digitsOnly';
  else if (pin.length < MIN_PIN_DIGITS) errors.pin = 'offline.pin.errors.tooShort';
  else if (pin.length > MAX_PIN_DIGITS) errors.pin = 'offline.pin.errors.tooLong';
  else if (isTrivial(pin)) errors.pin = 'offline.pin.errors.tooSimple';
  if (pinAgain === '') errors.pinAgain = 'offline.pin.errors.againRequired';
  else if (!errors.pin && pinAgain !== pin) errors.pinAgain = 'offline.pin.errors.mismatch';
  return errors;
}
