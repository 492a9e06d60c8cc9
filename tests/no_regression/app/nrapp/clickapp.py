# A click 7 console script: click 7 refuses to run when Python 3's locale is ASCII.
import click


@click.command()
@click.argument("name")
def main(name):
    click.echo("hello %s" % name)


if __name__ == "__main__":
    main()
