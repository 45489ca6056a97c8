import type { Radiologist } from '../../server/documents';
import {
  BENIGN_FIBROADENOMA_DENSE,
  BENIGN_LYMPH_NODE,
  HIGHLY_SUGGESTIVE_MASS,
  INCOMPLETE_ASYMMETRY,
  NEGATIVE,
  PROBABLY_BENIGN_FIBROADENOMA,
  SUSPICIOUS_MICROCALCIFICATIONS,
  type DemoReport,
} from './demo-reports';

export type DemoScreening = {
  /** Eight letters and digits, case sensitive; stored only as its keyed hash. */
  accessCode: string;
  /** The RIS accession number printed on the documents (not the portal's row id). */
  accessionNumber: string;
  /** ISO 8601 with the Warsaw offset of that day. */
  examinedAt: string;
  absorbedDoseMgy: number;
  /** Absent while the radiologists are still describing the images. */
  report?: DemoReport & { signedAt: string };
};

export type DemoAccount = { email: string; password: string; requirePasswordChange: boolean };

export type DemoPatient = {
  firstName: string;
  lastName: string;
  birthAt: string;
  pesel: string;
  email: string | null;
  phoneNumber: string;
  /** Patient-portal login; result-portal patients have none. */
  account?: DemoAccount;
  screenings: DemoScreening[];
};

/** Screening mammograms are read independently by two radiologists; the first signs referrals. */
export const DEMO_READERS: Radiologist[] = [
  { name: 'lek. Marta Kowalczyk', licenceNumber: '2234567' },
  { name: 'lek. Tomasz Lewandowski', licenceNumber: '6517320' },
];

/** The result-portal demo: sign in with code Xk7mP2qa and birth date 1968-04-12. */
export const KATARZYNA: DemoPatient = {
  firstName: 'Katarzyna',
  lastName: 'Zielińska',
  birthAt: '1968-04-12',
  pesel: '68041209860',
  email: null,
  phoneNumber: '+48600100200',
  screenings: [
    {
      accessCode: 'Xk7mP2qa',
      accessionNumber: 'MMG/2026/10/04127',
      examinedAt: '2026-10-06T10:40:00+02:00',
      absorbedDoseMgy: 5.18,
      report: { ...BENIGN_FIBROADENOMA_DENSE, signedAt: '2026-10-09T14:15:00+02:00' },
    },
  ],
};

/**
 * The patient-portal demo: eight years of screenings that together show every result of the
 * scale (1-5, -1 for BI-RADS 0, and none while the newest is still being described).
 */
export const ANNA: DemoPatient = {
  firstName: 'Anna',
  lastName: 'Nowak',
  birthAt: '1962-07-23',
  pesel: '62072304688',
  email: 'anna.nowak@example.com',
  phoneNumber: '+48601234567',
  account: { email: 'anna.nowak@example.com', password: 'Mammo!2024demo', requirePasswordChange: false },
  screenings: [
    {
      accessCode: 'Rt5vQ8mz',
      accessionNumber: 'MMG/2018/04/01733',
      examinedAt: '2018-04-17T09:12:00+02:00',
      absorbedDoseMgy: 3.84,
      report: { ...NEGATIVE, signedAt: '2018-04-24T13:05:00+02:00' },
    },
    {
      accessCode: 'Hp3kW7xn',
      accessionNumber: 'MMG/2020/05/02291',
      examinedAt: '2020-05-06T10:40:00+02:00',
      absorbedDoseMgy: 3.92,
      report: { ...BENIGN_LYMPH_NODE, signedAt: '2020-05-13T11:30:00+02:00' },
    },
    {
      accessCode: 'Lm9dT2fc',
      accessionNumber: 'MMG/2022/03/00958',
      examinedAt: '2022-03-08T08:55:00+01:00',
      absorbedDoseMgy: 4.71,
      report: { ...INCOMPLETE_ASYMMETRY, signedAt: '2022-03-14T15:20:00+01:00' },
    },
    {
      accessCode: 'Vb6sN4jq',
      accessionNumber: 'MMG/2022/04/01402',
      examinedAt: '2022-04-12T11:20:00+02:00',
      // Two spot-compression views of one breast only.
      absorbedDoseMgy: 2.36,
      report: { ...PROBABLY_BENIGN_FIBROADENOMA, signedAt: '2022-04-12T15:45:00+02:00' },
    },
    {
      accessCode: 'Gy2hK8rw',
      accessionNumber: 'MMG/2024/04/01876',
      examinedAt: '2024-04-23T09:30:00+02:00',
      absorbedDoseMgy: 4.88,
      report: { ...SUSPICIOUS_MICROCALCIFICATIONS, signedAt: '2024-04-29T12:10:00+02:00' },
    },
    {
      accessCode: 'Zc7pF3tn',
      accessionNumber: 'MMG/2025/06/02544',
      examinedAt: '2025-06-10T10:05:00+02:00',
      absorbedDoseMgy: 4.12,
      report: { ...HIGHLY_SUGGESTIVE_MASS, signedAt: '2025-06-12T09:40:00+02:00' },
    },
    {
      accessCode: 'Qw4eJ9bd',
      accessionNumber: 'MMG/2026/11/04518',
      examinedAt: '2026-11-10T08:25:00+01:00',
      absorbedDoseMgy: 4.05,
    },
  ],
};

/** Signs in and is held on the profile page until the password is changed. */
export const EWA: DemoPatient = {
  firstName: 'Ewa',
  lastName: 'Wiśniewska',
  birthAt: '1971-09-03',
  pesel: '71090303249',
  email: 'ewa.wisniewska@example.com',
  phoneNumber: '+48502345678',
  account: { email: 'ewa.wisniewska@example.com', password: 'Zmien!Haslo1', requirePasswordChange: true },
  screenings: [
    {
      accessCode: 'Ek3rU6ya',
      accessionNumber: 'MMG/2025/09/03361',
      examinedAt: '2025-09-23T12:35:00+02:00',
      absorbedDoseMgy: 3.67,
      report: { ...NEGATIVE, signedAt: '2025-09-30T10:50:00+02:00' },
    },
  ],
};

export const DEMO_PATIENTS: DemoPatient[] = [KATARZYNA, ANNA, EWA];
