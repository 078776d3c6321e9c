import { addressProvider } from '../address';
import { AppError } from '../http/app-error';
import { normalizePostcode } from '../../shared/journey/address';
import { caller, type Handlers } from './handler';

/** Postcode lookup (any signed-in user; the database extraction is another issue's). */
export const commonHandlers: Handlers = {
  lookupPostcode: async (request, _reply, { db, config }) => {
    caller(request);
    const postcode = normalizePostcode(request.query.postcode);
    // UK postcodes are 5 to 7 letters and digits; anything else has no addresses to find.
    if (postcode === '') throw AppError.validation({ postcode: 'required' });
    if (!/^[A-Z0-9]{2,8}$/.test(postcode)) return { postcode, addresses: [] };
    return { postcode, addresses: await addressProvider(config, db).lookup(postcode) };
  },
};
