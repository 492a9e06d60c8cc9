# multiprocessing with the spawn start method: workers re-import the main module.
import multiprocessing


def square(n):
    return n * n


def main():
    context = multiprocessing.get_context("spawn")
    with context.Pool(1) as pool:
        print("squares", pool.map(square, [1, 2, 3]))


if __name__ == "__main__":
    main()
