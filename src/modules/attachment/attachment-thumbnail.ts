import type { Readable } from 'node:stream';
import { AppError } from '../../shared/errors.js';
import type { BlobInfo, BlobStore } from '../storage/blob-store.js';
import { RASTER_IMAGE_TYPES } from '../storage/sniff.js';

/**
 * sharp, loaded on the first thumbnail (libvips adds some 20 MB to a server that may never make one).
 * libvips keeps decoded images in a cache meant for repeated operations on one image; every upload is a
 * new image, so the cache only holds memory (hundreds of MB under a stream of uploads).
 */
let loaded: Promise<typeof import('sharp')> | null = null;
const loadSharp = () => {
  loaded ??= import('sharp').then((module) => {
    module.default.cache(false);
    return module;
  });
  return loaded;
};

/** Longest side of a thumbnail, in pixels. */
export const THUMBNAIL_SIZE = 256;
/**
 * Decoded pixels allowed (40 megapixels, about 160 MB of RGBA): a small file can decode to gigabytes
 * (a decompression bomb), and the byte limit does not see it.
 */
const MAX_INPUT_PIXELS = 40_000_000;

export interface Thumbnail {
  width: number;
  height: number;
  blob: BlobInfo;
}

/** Whether a type gets a thumbnail: raster images, and SVG (rasterised, so its script never runs). */
export const hasThumbnail = (contentType: string) =>
  RASTER_IMAGE_TYPES.has(contentType) || contentType === 'image/svg+xml' || contentType === 'image/tiff';

/**
 * A PNG thumbnail (longest side THUMBNAIL_SIZE, first frame only) of an image blob, stored as a blob of
 * its own, and the image's size. The source is streamed into sharp; an image that cannot be decoded or
 * is larger than MAX_INPUT_PIXELS answers 400.
 */
export async function makeThumbnail(
  store: BlobStore,
  image: BlobInfo,
  maxBytes: number,
  clientId: number,
): Promise<Thumbnail> {
  const source: Readable = await store.get(image.key);
  const { default: sharp } = await loadSharp();
  const decoder = sharp({ limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error', pages: 1 });
  source.on('error', (error) => decoder.destroy(error));
  source.pipe(decoder);
  try {
    const metadata = await decoder.clone().metadata();
    const thumbnail = decoder
      .clone()
      .rotate() // EXIF orientation, so the thumbnail stands as the photo does
      .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'inside', withoutEnlargement: true })
      .png({ compressionLevel: 6 });
    const blob = await store.put(thumbnail, { maxBytes, clientId });
    return { width: metadata.width ?? 0, height: metadata.height ?? 0, blob };
  } catch (error) {
    if (error instanceof AppError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new AppError('BAD_REQUEST', `The image cannot be read: ${reason}`);
  }
}
