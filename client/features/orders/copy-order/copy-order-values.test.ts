import { describe, expect, it } from 'vitest';
import type { City, Province } from '@common/types/geography';
import { copyOrderBody, copyOrderErrors, EMPTY_COPY_ORDER, validateCopyOrder, type CopyOrderValues } from './copy-order-values';

const INSTITUTION = 'Centrum Diagnostyki Piersi, ul. Przykładowa 1, 00-001 Warszawa';
const lodzkie: Province = { id: 5, tId: '10', name: 'łódzkie' };
const lodz: City = { id: 812, name: 'Łódź', district: 'Łódź', municipality: 'Łódź', kind: 'city' };

const byPost: CopyOrderValues = {
  ...EMPTY_COPY_ORDER,
  requestTypes: ['result', 'digital_images'],
  docReceiver: 1,
  email: 'anna.nowak@example.com',
  province: lodzkie,
  city: lodz,
  postalCode: '90-001',
  street: 'Piotrkowska',
  houseNumber: '12',
  apartmentNumber: '3',
  // Typed before she switched the receiver to the post: must not be sent.
  privilegedName: 'Jan Nowak',
  privilegedId: 'ABA300000',
  statement1: true,
  statement2: true,
};

const byPrivilegedPerson: CopyOrderValues = { ...byPost, docReceiver: 2, requestTypes: ['survey'] };

describe('the copy-order body', () => {
  it('sends the address by id for a copy by post, and no privileged person', () => {
    const body = copyOrderBody(byPost, INSTITUTION, 'pl');
    expect(body).toMatchObject({
      requestTypes: ['result', 'digital_images'],
      requestDigitalImage: true,
      healthCareInstitution: INSTITUTION,
      docReceiver: 1,
      address: { province: 5, city: 812, postalCode: '90-001', street: 'Piotrkowska', houseNumber: '12', apartmentNumber: '3' },
      language: 'pl',
    });
    expect(body).not.toHaveProperty('privilegedPerson');
    expect(validateCopyOrder(body)).toEqual({});
  });

  it('sends the privileged person and no address for a pick-up by someone she names', () => {
    const body = copyOrderBody(byPrivilegedPerson, INSTITUTION, 'en');
    expect(body).toMatchObject({ docReceiver: 2, privilegedPerson: { name: 'Jan Nowak', id: 'ABA300000' }, requestDigitalImage: false });
    expect(body).not.toHaveProperty('address');
    expect(validateCopyOrder(body)).toEqual({});
  });

  it('sends neither address nor privileged person when she picks the copy up herself', () => {
    const body = copyOrderBody({ ...byPost, docReceiver: 0 }, INSTITUTION, 'pl');
    expect(body).toMatchObject({ docReceiver: 0 });
    expect(body).not.toHaveProperty('address');
    expect(body).not.toHaveProperty('privilegedPerson');
  });

  it('asks for the images on a disc exactly when digital images are among the request types', () => {
    const digitalImage = (requestTypes: CopyOrderValues['requestTypes']) =>
      copyOrderBody({ ...byPost, requestTypes }, INSTITUTION, 'pl').requestDigitalImage;
    expect(digitalImage(['digital_images'])).toBe(true);
    expect(digitalImage(['result', 'survey', 'digital_images', 'inspection'])).toBe(true);
    expect(digitalImage(['result', 'survey', 'inspection'])).toBe(false);
    expect(digitalImage([])).toBe(false);
  });
});

describe('the copy-order messages', () => {
  it('names every missing answer of an empty form once, by field', () => {
    const errors = validateCopyOrder(copyOrderBody({ ...EMPTY_COPY_ORDER, requestTypes: [] }, '', 'pl'));
    expect(errors).toEqual({
      requestTypes: 'orderCopy.validation.requestTypes.required',
      healthCareInstitution: 'orderCopy.validation.healthCareInstitution.required',
      docReceiver: 'orderCopy.validation.docReceiver.required',
      statement1: 'orderCopy.validation.statement1.required',
      statement2: 'orderCopy.validation.statement2.required',
    });
  });

  it('asks for the whole address only when the copy goes by post', () => {
    const errors = validateCopyOrder(
      copyOrderBody({ ...byPost, email: '', province: null, city: null, postalCode: '', street: '', houseNumber: '' }, INSTITUTION, 'pl'),
    );
    expect(errors).toEqual({
      email: 'orderCopy.validation.email.required',
      'address.province': 'orderCopy.validation.province.required',
      'address.city': 'orderCopy.validation.city.required',
      'address.postalCode': 'orderCopy.validation.postalCode.required',
      'address.street': 'orderCopy.validation.street.required',
      'address.houseNumber': 'orderCopy.validation.houseNumber.required',
    });
    expect(validateCopyOrder(copyOrderBody({ ...byPost, postalCode: '9000' }, INSTITUTION, 'pl'))).toEqual({
      'address.postalCode': 'orderCopy.validation.postalCode.invalid',
    });
  });

  it('asks for each statement she has not confirmed', () => {
    expect(validateCopyOrder(copyOrderBody({ ...byPost, statement2: false }, INSTITUTION, 'pl'))).toEqual({
      statement2: 'orderCopy.validation.statement2.required',
    });
    expect(validateCopyOrder(copyOrderBody({ ...byPost, statement1: false, statement2: false }, INSTITUTION, 'pl'))).toEqual({
      statement1: 'orderCopy.validation.statement1.required',
      statement2: 'orderCopy.validation.statement2.required',
    });
  });

  it('takes an identity card or passport number only with its check digit right', () => {
    const withId = (privilegedId: string) => validateCopyOrder(copyOrderBody({ ...byPrivilegedPerson, privilegedId }, INSTITUTION, 'pl'));
    const invalid = { 'privilegedPerson.id': 'orderCopy.validation.privilegedPerson.id.invalid' };
    // ID card: three letters, then the check digit, then five digits (ABA300000 is the specimen number).
    expect(withId('ABA300000')).toEqual({});
    expect(withId('aba 300000')).toEqual({}); // as people type it
    expect(withId('ABA400000')).toEqual(invalid);
    // Passport: two letters, then the check digit, then six digits.
    expect(withId('ZS0000177')).toEqual({});
    expect(withId('ZS1000177')).toEqual(invalid);
    expect(withId('')).toEqual({ 'privilegedPerson.id': 'orderCopy.validation.privilegedPerson.id.required' });
  });

  it('shows the server’s field issues in place and ignores what the form cannot show', () => {
    expect(
      copyOrderErrors([
        { path: 'address.postalCode', message: 'orderCopy.validation.postalCode.invalid' },
        { path: 'address.postalCode', message: 'orderCopy.validation.postalCode.required' },
        { path: 'address.country', message: 'orderCopy.validation.city.required' },
        { path: 'email', message: 'errors.generic' },
      ]),
    ).toEqual({ 'address.postalCode': 'orderCopy.validation.postalCode.invalid' });
  });

  it('shows a character the server cannot store under the field that holds it', () => {
    expect(copyOrderErrors([{ path: 'healthCareInstitution', message: 'validation.unstorableCharacter' }])).toEqual({
      healthCareInstitution: 'validation.unstorableCharacter',
    });
  });
});
