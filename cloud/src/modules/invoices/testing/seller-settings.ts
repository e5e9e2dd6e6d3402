/** The seller the invoice integration tests set up (a VAT payer in Warsaw with a bank account). */
export const TEST_SELLER_SETTINGS = {
  sellerName: 'Harmonia Studio Ruchu sp. z o.o.',
  addressLine: 'ul. Marszałkowska 10/4',
  postalCode: '00-590',
  city: 'Warszawa',
  taxId: '526-025-02-74',
  iban: 'PL61 1090 1014 0000 0712 1981 2874',
  placeOfIssue: 'Warszawa',
};
