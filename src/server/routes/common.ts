import { addressProvider } from '../address';
import { AppError } from '../errors/app-error';
import { databaseExtractLink } from '../services/dump/database-extract-link';
import { normalizePostcode } from '../../shared/journey/address';
import { caller, serviceContext, type Handlers } from './handler';

/** Postcode lookup (any signed-in user) and the staff's database extract (a download link). */
export const commonHandlers: Handlers = {
  lookupPostcode: async (request, _reply, { db, config }) => {
    caller(request);
    const postcode = normalizePostcode(request.query.postcode);
    // UK postcodes are 5 to 7 letters and digits; anything else has no addresses to find.
    if (postcode === '') throw AppError.validation({ postcode: 'required' });
    if (!/^[A-Z0-9]{2,8}$/.test(postcode)) return { postcode, addresses: [] };
    return { postcode, addresses: await addressProvider(config, db).lookup(postcode) };
  },

  dumpDatabase: async (request, _reply, ctx) => databaseExtractLink(serviceContext(request, ctx), {}),
};
