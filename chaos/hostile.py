"""stub"""
from chaos.tally import Tally

def run(scratch, *, sample=False):
    return Tally("hostile")
