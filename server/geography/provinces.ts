/** Poland's 16 provinces (województwa) by name, with their TERYT codes. */
export const PROVINCE_CODES: Readonly<Record<string, string>> = {
  dolnośląskie: '02',
  'kujawsko-pomorskie': '04',
  lubelskie: '06',
  lubuskie: '08',
  łódzkie: '10',
  małopolskie: '12',
  mazowieckie: '14',
  opolskie: '16',
  podkarpackie: '18',
  podlaskie: '20',
  pomorskie: '22',
  śląskie: '24',
  świętokrzyskie: '26',
  'warmińsko-mazurskie': '28',
  wielkopolskie: '30',
  zachodniopomorskie: '32',
};
