import { randomInt } from 'node:crypto';
import { ACCESS_CODE_LENGTH } from '../../common/validation/auth';

/**
 * Letters and digits a patient cannot misread on a printed slip: no 0/O/o, 1/I/l, and no
 * letters whose cases look alike in most fonts (c, s, u, v, w, x, z). 48 characters, so a code
 * is one of 48^8 (about 2.8e13).
 */
export const ACCESS_CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabdefghijkmnpqrty23456789';

/** What a RIS may send as its own code: exactly 8 letters or digits, case sensitive. */
export const PROVIDER_ACCESS_CODE = new RegExp(`^[A-Za-z0-9]{${ACCESS_CODE_LENGTH}}$`);

/** A new access code: 8 characters drawn uniformly (crypto random) from the unambiguous alphabet. */
export function generateAccessCode(): string {
  let code = '';
  for (let index = 0; index < ACCESS_CODE_LENGTH; index += 1) code += ACCESS_CODE_ALPHABET[randomInt(ACCESS_CODE_ALPHABET.length)];
  return code;
}
